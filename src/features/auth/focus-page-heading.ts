/**
 * Moves focus to the page's main heading once it is on screen (a route may still be loading its code), so a
 * keyboard or screen-reader user starts from the top of the new page. `leaving` is the heading of the page being
 * left, which may still show for a frame. Gives up after a few seconds.
 */
export function focusPageHeading(leaving: Element | null = null, timeoutMs = 5000): void {
  const until = performance.now() + timeoutMs;
  const attempt = () => {
    const heading = document.querySelector<HTMLElement>('main h1');
    if (heading && heading !== leaving) {
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus();
      return;
    }
    if (performance.now() < until) window.requestAnimationFrame(attempt);
  };
  window.requestAnimationFrame(attempt);
}
