/** Only same-origin app paths are followed after sign-in (never '//host' or absolute URLs). */
export function safeRedirect(target: string | null | undefined, fallback = '/contacts'): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback;
  if (target.startsWith('/sign-in')) return fallback;
  return target;
}
