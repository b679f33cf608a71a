// Builds the self-contained guest bundle once before the suites (tests run against src/).
export default async function setup(): Promise<void> {
  const mod = (await import('../scripts/build-guest-bundle.mjs')) as { buildGuestBundle(): Promise<string> };
  await mod.buildGuestBundle();
}
