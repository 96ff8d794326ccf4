import { AUTH_MESSAGES, PASSWORD_RULES } from '../../../identity/messages.ts';

/**
 * The new-password rules, updated as the user types: each green when met and red when not, and
 * neutral while nothing is typed (an empty field has broken no rule yet).
 */
export function PasswordChecklist({
  id,
  password,
  confirmation,
}: {
  id: string;
  password: string;
  confirmation: string;
}) {
  const mismatch = confirmation.length > 0 && confirmation !== password;
  return (
    <div id={id} className="password-checklist" aria-live="polite">
      <ul>
        {PASSWORD_RULES.map((rule) => {
          if (password === '')
            return (
              <li key={rule.id} className="rule-pending">
                <span aria-hidden="true">•</span> {rule.label}
              </li>
            );
          const met = rule.test(password);
          return (
            <li key={rule.id} className={met ? 'rule-met' : 'rule-unmet'}>
              <span aria-hidden="true">{met ? '✓' : '✗'}</span> {rule.label}
              <span className="visually-hidden">{met ? ' (met)' : ' (not met)'}</span>
            </li>
          );
        })}
      </ul>
      {mismatch && <p className="field-error">{AUTH_MESSAGES.passwordsDoNotMatch}</p>}
    </div>
  );
}
