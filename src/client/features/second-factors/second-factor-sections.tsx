import { PasskeysSection } from './passkeys-section.tsx';
import { TwoFactorSection } from './two-factor-section.tsx';

/** Settings' sections for second factors: authenticator codes, then passkeys. */
export function SecondFactorSections() {
  return (
    <>
      <TwoFactorSection />
      <PasskeysSection />
    </>
  );
}
