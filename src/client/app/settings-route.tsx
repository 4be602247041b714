import { SettingsPage } from '#client/features/settings/settings-page.tsx';
import { SecondFactorSections } from '#client/features/second-factors/second-factor-sections.tsx';
import { TransferSection } from '#client/features/transfer/transfer-section.tsx';
import { WebhooksSection } from '#client/features/webhooks/webhooks-section.tsx';

/**
 * The Settings screen: the account's sections, second factors, moving clients in and out, and
 * (administrators) webhooks.
 */
export function SettingsRoute() {
  return (
    <SettingsPage>
      <SecondFactorSections />
      <TransferSection />
      <WebhooksSection />
    </SettingsPage>
  );
}
