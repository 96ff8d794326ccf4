import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type CapturedMail = { to: string[]; subject: string; text: string; html: string; messageId: string };

/**
 * An SMTP server in process that keeps every message it accepts. While stalled, it reads each
 * message to its end but does not answer the DATA command: the sender waits, and a message
 * whose sender disconnects before the answer was never accepted, so it is dropped.
 */
export async function startSmtpServer(): Promise<{
  url: string;
  messages: CapturedMail[];
  /** Messages received in full and waiting, unanswered, for the stall to end. */
  stalled: CapturedMail[];
  stall: (on: boolean) => void;
  waitFor: (predicate: (m: CapturedMail) => boolean, timeoutMs?: number) => Promise<CapturedMail>;
  close: () => Promise<void>;
}> {
  const messages: CapturedMail[] = [];
  const held = new Map<string, { mail: CapturedMail; accept: () => void }>();
  let stalling = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'], // its built-in certificate has expired
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed: ParsedMail) => {
          const to = [parsed.to].flat().flatMap((a) => (a ? a.value.map((v) => v.address ?? '') : []));
          const mail = {
            to,
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            messageId: parsed.messageId ?? '',
          };
          const accept = () => {
            held.delete(session.id);
            messages.push(mail);
            callback();
          };
          if (stalling) held.set(session.id, { mail, accept });
          else accept();
        })
        .catch(callback);
    },
    onClose(session) {
      held.delete(session.id);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    get stalled() {
      return [...held.values()].map((h) => h.mail);
    },
    stall(on) {
      stalling = on;
      if (!on) for (const h of [...held.values()]) h.accept();
    },
    async waitFor(predicate, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = messages.find(predicate);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(
        `no matching mail within ${timeoutMs} ms; received: ${messages.map((m) => m.subject).join(', ')}`,
      );
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
