import { AntiPhishingCard } from '../components/anti-phishing-card';
import { SessionsList } from '../components/sessions-list';
import { SignInHistory } from '../components/sign-in-history';
import { SignInMethods } from '../components/sign-in-methods';
import { TwoFactorResetCard } from '../components/two-factor-reset-card';

/** /settings/security: signed-in devices, sign-in history, anti-phishing phrase, links to 2FA, passkeys and the password change. */
export default function SecurityPage() {
  return (
    <div className="flex flex-col gap-4" data-testid="security-page">
      <TwoFactorResetCard />
      <SignInMethods />
      <SessionsList />
      <AntiPhishingCard />
      <SignInHistory />
    </div>
  );
}
