// Builds the self-contained guest bundle once before the suites (tests run against src/).
export default async function setup(): Promise<void> {
  const mod = (await import('../guest-bundle.config.mjs')) as { buildGuestBundle(): Promise<string> };
  await mod.buildGuestBundle();
}
