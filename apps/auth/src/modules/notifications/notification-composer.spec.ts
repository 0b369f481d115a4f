import type { AuthConfig } from '../../config/auth.config.js';
import { NotificationComposer, resetLink } from './notification-composer.js';

describe('NotificationComposer', () => {
  const composer = new NotificationComposer({
    PUBLIC_WEB_URL: 'https://app.example.com/base/',
    ACTIVATION_CODE_TTL_SECONDS: 900,
    PASSWORD_RESET_TOKEN_TTL_SECONDS: 3600,
  } as AuthConfig);

  it('puts the reset token only in the fragment of the link and in X-Reset-Token', () => {
    const mail = composer.passwordReset('a+b@example.com', 'prt_tok-en_1');
    if (mail.channel !== 'email') throw new Error('expected a mail');
    const link = /https:\/\/\S+/.exec(mail.text)![0];
    const url = new URL(link);
    expect(url.pathname).toBe('/base/reset-password');
    expect(url.search).toBe('');
    expect(new URLSearchParams(url.hash.slice(1)).get('token')).toBe('prt_tok-en_1');
    expect(new URLSearchParams(url.hash.slice(1)).get('email')).toBe('a+b@example.com');
    expect(mail.headers).toEqual({ 'X-Reset-Token': 'prt_tok-en_1' });
  });

  it('drops any query string of the configured base URL', () => {
    expect(resetLink('https://x.test/?utm=1', 't', 'e@x.test')).toBe(
      'https://x.test/reset-password#token=t&email=e%40x.test',
    );
  });

  it('sends the activation code by SMS to phone accounts and by mail to email accounts', () => {
    const sms = composer.activation({ email: null, phone: '+14155550100' }, '004211');
    expect(sms).toMatchObject({ channel: 'sms', to: '+14155550100' });
    expect(sms.text).toContain('004211');
    const mail = composer.activation({ email: 'a@example.com', phone: null }, '004211');
    expect(mail).toMatchObject({ channel: 'email', to: 'a@example.com' });
    expect(mail.text).toContain('004211');
    expect(mail.text).toContain('15 minutes');
  });
});
