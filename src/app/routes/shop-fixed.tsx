import { redirect } from 'react-router';

/** The specification's variant route: permanently the shop (DESIGN decision 6). */
export function loader() {
  return redirect('/shop', 301);
}
