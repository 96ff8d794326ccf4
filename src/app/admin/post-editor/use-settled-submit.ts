import { type FormEvent, type KeyboardEvent, type RefObject, useRef } from 'react';

/**
 * The form's submit and Ctrl (or Cmd) + S: an autosave under way when Update is pressed makes the
 * save wait for the version it makes.
 */
export function useSettledSubmit(
  formRef: RefObject<HTMLFormElement | null>,
  isNew: boolean,
  /** Settles autosave first; resolves once the form may be submitted with the current version. */
  beforeSubmit: () => Promise<void>,
) {
  const waited = useRef(false);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (waited.current || isNew) {
      waited.current = false;
      // Nothing is left to autosave or to ask about on leaving: this save takes it all.
      void beforeSubmit();
      return;
    }
    event.preventDefault();
    void beforeSubmit().then(() =>
      // After React has written the new base version into the hidden field.
      setTimeout(() => {
        waited.current = true;
        formRef.current?.requestSubmit();
      }, 0),
    );
  };
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 's') {
      event.preventDefault();
      formRef.current?.requestSubmit();
    }
  };
  return { onSubmit, onKeyDown };
}
