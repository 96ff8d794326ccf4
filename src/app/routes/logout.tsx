import { redirect } from 'react-router';
import { signOut } from '../../identity/service.ts';
import { getApp } from '../context.ts';
import type { Route } from './+types/logout';

export function loader() {
  return redirect('/');
}

export async function action({ context }: Route.ActionArgs) {
  const { services, state } = getApp(context);
  await signOut(services, state);
  return redirect('/');
}
