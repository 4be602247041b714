/** How long "Trust this device" skips the code at sign-in on that browser. */
export const TRUST_DEVICE_DAYS = 30;
