import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { POST_MESSAGES } from '../../../blog/post-messages.ts';

/** Asks before the page is left (closed, reloaded, or another admin page) with changes stored nowhere. */
export function useLeavePrompt(unstored: () => boolean) {
  useEffect(() => {
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (!unstored()) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', beforeUnload);
    return () => window.removeEventListener('beforeunload', beforeUnload);
  }, [unstored]);
  // Not a save's own redirect: a submission is a POST, and settling it left nothing unstored.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => currentLocation.pathname !== nextLocation.pathname && unstored(),
  );
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm(POST_MESSAGES.leaveUnsaved)) blocker.proceed();
    else blocker.reset();
  }, [blocker]);
}
