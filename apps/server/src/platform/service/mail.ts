import nodemailer from 'nodemailer';
import type { Config } from '../config/config.ts';

/**
 * Outgoing mail (decision 033): one nodemailer transport to SMTP_URL, or none when it is unset,
 * and then nothing is sent. The sender is MAIL_FROM, else no-reply@ the host of PUBLIC_URL.
 */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** Where a mail says it comes from. */
export function senderOf(config: Pick<Config, 'mailFrom' | 'publicUrl'>): string {
  if (config.mailFrom) return config.mailFrom.trim();
  const host = config.publicUrl ? new URL(config.publicUrl).hostname : 'localhost';
  return `no-reply@${host}`;
}

const SEND_TIMEOUT_MS = 30_000;

/** The mailer of SMTP_URL, or undefined when the server sends no mail. */
export function mailerOf(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'publicUrl'>) {
  if (!config.smtpUrl) return undefined;
  const transport = nodemailer.createTransport({
    url: config.smtpUrl,
    connectionTimeout: SEND_TIMEOUT_MS,
    greetingTimeout: SEND_TIMEOUT_MS,
    socketTimeout: SEND_TIMEOUT_MS,
  });
  const from = senderOf(config);
  const mailer: Mailer = {
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
    close: () => transport.close(),
  };
  return mailer;
}
