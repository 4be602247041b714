import { SettingsPage } from '#client/features/settings/settings-page.tsx';
import { SecondFactorSections } from '#client/features/second-factors/second-factor-sections.tsx';
import { TransferSection } from '#client/features/transfer/transfer-section.tsx';

/** The Settings screen: the account's sections, second factors, then moving clients in and out. */
export function SettingsRoute() {
  return (
    <SettingsPage>
      <SecondFactorSections />
      <TransferSection />
    </SettingsPage>
  );
}
