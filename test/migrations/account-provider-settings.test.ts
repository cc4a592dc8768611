import { migrationSource } from '../../migrations';
import { openMollieKey, sealMollieKey } from '../../src/providers/mollie/settings';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';
import { TEST_MOLLIE_KEY } from '../support/mollieNock';

const name = '20261201_030_account_provider_settings';

describe.each(TEST_DATABASES)('the migration giving accounts provider settings of any provider, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });

  it('When it runs over Mollie settings, then the key, profile and API URL survive, and undoing it puts them back', async () => {
    const db = t.ctx.db;
    const { accountId: withKey } = await t.newAccount();
    const { accountId: withProfileOnly } = await t.newAccount();
    const { accountId: withNothing } = await t.newAccount();
    await db.migrate.down({ migrationSource, name });
    expect(await db.schema.hasColumn('accounts', 'provider')).toBe(false);

    const sealed = sealMollieKey(t.ctx.config.appKey, { key: TEST_MOLLIE_KEY, allowLive: false });
    await db('accounts').where({ id: withKey }).update({
      mollie_api_key_encrypted: sealed,
      mollie_profile_id: 'pfl_QkEhN94Ba',
      mollie_api_url: 'https://mollie-proxy.example.nl/v2/',
    });
    await db('accounts').where({ id: withProfileOnly }).update({ mollie_profile_id: 'pfl_OnlyProfile1' });
    await db.migrate.up({ migrationSource, name });

    expect(await db.schema.hasColumn('accounts', 'mollie_api_key_encrypted')).toBe(false);
    const settingsOf = (id: string) =>
      db('accounts').where({ id }).first('provider', 'provider_credentials_sealed', 'provider_profile_id', 'provider_options');
    expect(await settingsOf(withKey)).toEqual({
      provider: 'mollie',
      provider_credentials_sealed: sealed,
      provider_profile_id: 'pfl_QkEhN94Ba',
      provider_options: JSON.stringify({ apiUrl: 'https://mollie-proxy.example.nl/v2/' }),
    });
    expect(openMollieKey(t.ctx.config.appKey, String((await settingsOf(withKey)).provider_credentials_sealed))).toEqual({
      key: TEST_MOLLIE_KEY,
      allowLive: false,
    });
    expect(await settingsOf(withProfileOnly)).toEqual({
      provider: null,
      provider_credentials_sealed: null,
      provider_profile_id: 'pfl_OnlyProfile1',
      provider_options: null,
    });
    expect(await settingsOf(withNothing)).toEqual({
      provider: null,
      provider_credentials_sealed: null,
      provider_profile_id: null,
      provider_options: null,
    });
    expect((await t.ctx.providers.forAccount({ id: withKey })).name).toBe('mollie');

    await db.migrate.down({ migrationSource, name });
    expect(await db('accounts').where({ id: withKey }).first('mollie_api_key_encrypted', 'mollie_profile_id', 'mollie_api_url')).toEqual({
      mollie_api_key_encrypted: sealed,
      mollie_profile_id: 'pfl_QkEhN94Ba',
      mollie_api_url: 'https://mollie-proxy.example.nl/v2/',
    });
    await db.migrate.up({ migrationSource, name });
  });
});
