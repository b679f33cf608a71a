import type { BrowserContext, Page } from 'playwright-core';

/**
 * Lets `origin` show notifications in `context` and records each one the page shows as
 * `title | body` (headless Chromium draws none); read them with {@link shownNotifications}.
 */
export async function recordNotifications(context: BrowserContext, origin: string): Promise<void> {
  await context.grantPermissions(['notifications'], { origin });
  await context.addInitScript(() => {
    const shown: string[] = [];
    (window as unknown as { shownNotifications: string[] }).shownNotifications = shown;
    const Native = window.Notification;
    window.Notification = class extends Native {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        shown.push(`${title} | ${options?.body ?? ''}`);
      }
    } as typeof Notification;
  });
}

/** The notifications `page` showed so far, oldest first. */
export function shownNotifications(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { shownNotifications: string[] }).shownNotifications);
}
