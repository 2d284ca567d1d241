/**
 * What the apps need to reach the local inbox: its SMTP server unless the operator named one,
 * and its receiver (that one address and port only) as an allowed webhook target.
 */
export function withInbox(
  env: NodeJS.ProcessEnv,
  inbox: { endpoint: string; smtpHost: string; smtpPort: number },
): NodeJS.ProcessEnv {
  const allowlist = [env.NOTIFIER_WEBHOOK_TARGET_ALLOWLIST, inbox.endpoint]
    .filter((v): v is string => v !== undefined && v.trim() !== '')
    .join(',');
  const usesOwnSmtp = env.SMTP_HOST !== undefined && env.SMTP_HOST !== '';
  return {
    ...env,
    NOTIFIER_WEBHOOK_TARGET_ALLOWLIST: allowlist,
    ...(usesOwnSmtp ? {} : { SMTP_HOST: inbox.smtpHost, SMTP_PORT: String(inbox.smtpPort) }),
  };
}
