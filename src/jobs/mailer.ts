import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';

export type Mail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  sensitive?: boolean;
  /**
   * Names this one message for good: every attempt to send it carries the same Message-ID
   * (`<key@domain of MAIL_FROM>`), so a receiver that got an earlier attempt sees a duplicate.
   */
  idempotencyKey?: string;
  /** The sender's display name (the blog's title for newsletters); the address stays MAIL_FROM's. */
  fromName?: string;
  /** Extra headers, such as List-Unsubscribe for newsletters. */
  headers?: Record<string, string>;
  /** Files sent with it (an invoice's PDF). */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
};

export type Mailer = {
  send(mail: Mail): Promise<void>;
  delivers: boolean;
  /** MAIL_FROM's bare address, where replies to our mails arrive. */
  fromAddress: string;
  close(): void;
};

/**
 * SMTP when configured. Otherwise the mail is written to the log: in the embedded mode
 * that is its delivery channel (the specification's "logged to the console").
 */
export function createMailer(opts: {
  smtpUrl: string | undefined;
  from: string;
  log: Logger;
  /** Called after each mail is handed over (counted by the metrics, whichever job sent it). */
  onSent: () => void;
}): Mailer {
  const fromAddress = /<([^>]+)>/.exec(opts.from)?.[1] ?? opts.from.trim();
  if (!opts.smtpUrl) {
    return {
      delivers: false,
      fromAddress,
      async send(mail) {
        opts.log.info(
          { mail: { to: mail.to, subject: mail.subject, text: mail.text } },
          'mail (no SMTP configured)',
        );
        opts.onSent();
      },
      close() {},
    };
  }
  // Pooled: connections are kept and reused (a newsletter sends thousands of mails), unless the
  // URL says otherwise (?pool=false).
  const url = new URL(opts.smtpUrl);
  if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
  const transport: Transporter = nodemailer.createTransport(url.toString());
  const domain = /@([^\s>]+)/.exec(opts.from)?.[1] ?? 'penstand.local';
  return {
    delivers: true,
    fromAddress,
    async send(mail) {
      await transport.sendMail({
        from: mail.fromName ? { name: mail.fromName, address: fromAddress } : opts.from,
        headers: mail.headers,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        attachments: mail.attachments,
        ...(mail.idempotencyKey ? { messageId: `<${mail.idempotencyKey}@${domain}>` } : {}),
      });
      opts.log.info({ mail: { subject: mail.sensitive ? '[redacted]' : mail.subject } }, 'mail sent');
      opts.onSent();
    },
    close() {
      transport.close();
    },
  };
}
