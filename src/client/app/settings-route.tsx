import { SettingsPage } from '#client/features/settings/settings-page.tsx';
import { TransferSection } from '#client/features/transfer/transfer-section.tsx';

/** The Settings screen: the account's sections, then moving clients in and out. */
export function SettingsRoute() {
  return (
    <SettingsPage>
      <TransferSection />
    </SettingsPage>
  );
}
