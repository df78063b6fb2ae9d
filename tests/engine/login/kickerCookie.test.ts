import { afterEach, describe, expect, it, vi } from 'vitest';
import { readKickerSsoId } from '../../../engine/features/login/kickerCookie';

afterEach(() => vi.restoreAllMocks());

describe('the kickeruser cookie (portal-core.md §7, §8)', () => {
  it('gives the ssoid part of the cookie', () => {
    expect(readKickerSsoId('kickeruser', 'a=1; kickeruser=ssoid%3Dabc123%26name%3Dx; b=2')).toBe('abc123');
  });

  it('logs a console message and gives nothing when the cookie or its ssoid is missing', () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    expect(readKickerSsoId('kickeruser', 'a=1')).toBeUndefined();
    expect(readKickerSsoId('kickeruser', 'kickeruser=name%3Dx')).toBeUndefined();
    expect(info).toHaveBeenCalledTimes(2);
  });
});
