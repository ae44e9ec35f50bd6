import nodemailer from 'nodemailer';
import type { NodemailerError } from 'nodemailer/lib/errors';

/** One e-mail as it goes out: plain text, From the member, a Message-ID fixed by the caller. */
export type Mail = { messageId: string; from: { name: string; address: string }; to: string; subject: string; text: string };

/**
 * accepted: the SMTP server took the message. Otherwise permanent says whether trying again can help: a 5xx reply
 * about the message (a refused recipient or content) is final; a 4xx, an unreachable server or refused credentials
 * (a configuration to mend, not a bad message) are tried again.
 */
export type MailResult = { accepted: true } | { accepted: false; permanent: boolean; error: string };

/** The one client of the deployment's mail server (SMTP_URL), shared by this process's senders. */
export type Mailer = { send(mail: Mail): Promise<MailResult>; close(): void; timeoutMs: number };

/**
 * Each of connecting, the greeting and any one wait for the server may take this long. A send is a few such steps:
 * `timeoutMs` (four of them) is what a delivery lease allows it, so a lease outlives every send but a server that
 * answers each step just in time.
 */
const STEP_TIMEOUT_MS = 15_000;

export function createMailer(smtpUrl: string): Mailer {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: STEP_TIMEOUT_MS,
    greetingTimeout: STEP_TIMEOUT_MS,
    socketTimeout: STEP_TIMEOUT_MS,
  });
  return {
    timeoutMs: STEP_TIMEOUT_MS * 4,
    async send(mail) {
      try {
        await transport.sendMail({
          messageId: mail.messageId,
          from: mail.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
        });
        return { accepted: true };
      } catch (error) {
        return refused(error as NodemailerError);
      }
    },
    close: () => transport.close(),
  };
}

function refused(error: NodemailerError): MailResult {
  const permanent =
    error.code !== 'EAUTH' && (error.permanent ?? (!!error.responseCode && error.responseCode >= 500 && error.responseCode !== 503));
  const said = error.response ?? error.message;
  return { accepted: false, permanent, error: said.slice(0, 500) };
}
