import { type FormEvent, type RefObject, useEffect, useState } from 'react';

export const FORM_HAS_ERRORS = 'This form has errors: please correct the fields marked above.';

/**
 * After a refused submission, moves focus to the first field marked aria-invalid and scrolls it
 * into view: the message at a field far above the button is otherwise never seen. `errors` is
 * the action's answer, a new object each time, so every refused submission moves focus again.
 */
export function useFocusFirstError(form: RefObject<HTMLFormElement | null>, errors: unknown): void {
  useEffect(() => {
    if (!errors) return;
    // Then the form's fields placed outside it with a form attribute (checkout's discount code).
    const field =
      form.current?.querySelector<HTMLElement>('[aria-invalid="true"]') ??
      [...(form.current?.elements ?? [])].find(
        (element): element is HTMLElement =>
          element instanceof HTMLElement && element.getAttribute('aria-invalid') === 'true',
      );
    if (!field) return;
    field.focus({ preventScroll: true });
    field.scrollIntoView({ block: 'center' });
  }, [errors, form]);
}

/**
 * Said next to the submit button of a form that came back with errors. Not an alert of its own:
 * the form's notice already is one, and focus goes to the first field in error.
 */
export function FormErrorsAtButton({ show }: { show: boolean }) {
  return show ? <p className="field-error">{FORM_HAS_ERRORS}</p> : null;
}

/**
 * A refused form's field messages, each dropped once its field is edited: a message under a
 * field the writer has already filled in is stale. They all come back with the next refusal.
 */
export function useFieldErrors(refused: Record<string, string> | undefined) {
  // The edits count against one refusal: a new refusal (a new object) starts with none.
  const [marks, setMarks] = useState({ refused, edited: new Set<string>() });
  const edited = marks.refused === refused ? marks.edited : new Set<string>();
  const fields = Object.fromEntries(Object.entries(refused ?? {}).filter(([name]) => !edited.has(name)));
  const onInput = (event: FormEvent<HTMLFormElement>) => {
    const name = (event.target as HTMLInputElement).name;
    if (name && refused?.[name] && !edited.has(name))
      setMarks({ refused, edited: new Set(edited).add(name) });
  };
  return { fields, onInput };
}
