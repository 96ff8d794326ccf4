import { redirect } from 'react-router';

/** /admin-simple and /admin-fixed were variants of the admin page: they live on at /admin. */
export function loader() {
  return redirect('/admin', 301);
}

export default function AdminRedirect() {
  return null;
}
