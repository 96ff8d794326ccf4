import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type CapturedMail = {
  to: string[];
  subject: string;
  text: string;
  html: string;
  messageId: string;
  /** Every header as sent, by lower-case name (the last one when repeated). */
  headers: Record<string, string>;
  /** The files sent with it (an invoice's PDF). */
  attachments: { filename: string; contentType: string; content: Buffer }[];
};

export type SmtpOptions = {
  /** The SMTP reply code to refuse a recipient with (550 unknown user, 451 try later), or null to take it. */
  refuseRecipient?: (address: string) => number | null;
};

export type TestSmtp = Awaited<ReturnType<typeof startSmtpServer>>;

/**
 * An SMTP server in process that keeps every message it accepts. While stalled, it reads each
 * message to its end but does not answer the DATA command: the sender waits, and a message
 * whose sender disconnects before the answer was never accepted, so it is dropped.
 */
export async function startSmtpServer(options: SmtpOptions = {}): Promise<{
  url: string;
  messages: CapturedMail[];
  /** Messages received in full and waiting, unanswered, for the stall to end. */
  stalled: CapturedMail[];
  stall: (on: boolean) => void;
  /** Answers the messages held now; the stall goes on for the next ones. */
  releaseHeld: () => void;
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
    onRcptTo(address, _session, callback) {
      const code = options.refuseRecipient?.(address.address) ?? null;
      if (code === null) return callback();
      const error = new Error(code >= 500 ? 'No such user here' : 'Try again later') as Error & {
        responseCode: number;
      };
      error.responseCode = code;
      callback(error);
    },
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
            attachments: parsed.attachments.map((a) => ({
              filename: a.filename ?? '',
              contentType: a.contentType,
              content: a.content,
            })),
            headers: Object.fromEntries(
              // Unfolded: a long header arrives on several lines.
              parsed.headerLines.map((h) => [
                h.key,
                h.line
                  .slice(h.line.indexOf(':') + 1)
                  .replace(/\r?\n[ \t]+/g, ' ')
                  .trim(),
              ]),
            ),
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
    releaseHeld() {
      for (const h of [...held.values()]) h.accept();
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
