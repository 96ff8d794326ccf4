import '../server/production-by-default.ts';
import { stdin, stdout } from 'node:process';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ensureAdmin } from '../identity/admin.ts';
import { passwordMeetsRules } from '../identity/messages.ts';
import { loadConfigOrExit } from '../server/boot.ts';
import { runCommand } from './command.ts';

/**
 * `npm run admin:create [-- --email you@example.com --password …]`: creates the admin, or
 * promotes an existing account and sets its password. Asks for what the flags leave out.
 */
const config = loadConfigOrExit();
if (config.cognito) {
  process.stderr.write(
    "With Amazon Cognito, admins are the members of the user pool's 'admin' group: add the account there\n" +
      '(aws cognito-idp admin-add-user-to-group --user-pool-id … --username … --group-name admin).\n',
  );
  process.exit(2);
}
const { values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' } } });
const prompt = createInterface({ input: stdin, output: stdout });
const email = values.email ?? (await prompt.question('Admin email: '));
const password =
  values.password ?? (await prompt.question('Password (8+ characters, upper, lower, digit, special): '));
prompt.close();

if (!z.email().safeParse(email.trim()).success) {
  process.stderr.write('That is not a valid email address.\n');
  process.exit(2);
}
if (!passwordMeetsRules(password)) {
  process.stderr.write(
    'The password needs 8+ characters with an uppercase and a lowercase letter, a digit and a special character.\n',
  );
  process.exit(2);
}
await runCommand(config, async (runtime) => {
  const result = await ensureAdmin(runtime.services.db, { email: email.trim(), password });
  stdout.write(`${result?.created ? 'Created' : 'Promoted'} admin ${email.trim()}\n`);
});
