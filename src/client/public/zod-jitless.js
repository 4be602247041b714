// Loaded before the app, as a plain script: zod reads this when it starts, before any schema
// exists (a module could not be sure to run first once the build splits chunks). zod would
// otherwise probe for `new Function`, which the Content-Security-Policy (script-src 'self', no
// 'unsafe-eval') reports as a violation on every page although zod catches it; its plain
// parsers are fast enough for our forms.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, {
  jitless: true,
});
