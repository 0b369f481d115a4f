import { normaliseSettingsId } from './ids.js';
import { SettingsStore } from './settings.js';

describe('SettingsStore: docs/api.md § User settings client rules', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('applies writes locally first and debounces rapid changes into one PATCH after 500 ms', async () => {
    const send = jest.fn(() => Promise.resolve());
    const store = new SettingsStore({ send });
    store.update({ theme: 'dark' });
    expect(store.values).toEqual({ theme: 'dark' });
    jest.advanceTimersByTime(300);
    store.update({ language: 'de' });
    jest.advanceTimersByTime(499);
    expect(send).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    await store.flush();
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledWith({ theme: 'dark', language: 'de' });
  });

  it('a failed PATCH leaves the local state unchanged and reports the error', async () => {
    const failure = new Error('503');
    const onError = jest.fn();
    const store = new SettingsStore({ send: () => Promise.reject(failure), onError });
    store.load({ theme: 'light' });
    store.update({ theme: 'dark' });
    jest.advanceTimersByTime(500);
    await store.flush();
    expect(onError).toHaveBeenCalledWith(failure);
    expect(store.values).toEqual({ theme: 'dark' });
  });

  it('normalises organization and project ids; invalid or empty ones are left out', async () => {
    const send = jest.fn(() => Promise.resolve());
    const store = new SettingsStore({ send });
    store.update({ current_organization_id: '42', current_project_id: '' });
    store.update({ current_project_id: 'not-an-id' });
    await store.flush();
    expect(send).toHaveBeenCalledWith({ current_organization_id: 42 });
    const uuid = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(normaliseSettingsId(uuid)).toBe(uuid);
    expect(normaliseSettingsId(7)).toBe(7);
    expect(normaliseSettingsId('12ab')).toBeUndefined();
    expect(normaliseSettingsId(null)).toBeUndefined();
  });
});
