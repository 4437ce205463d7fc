/** Preset avatars shipped in public/avatars; the API stores them as "preset:N". */
export const PRESET_AVATAR_COUNT = 8;

export const PRESET_AVATARS: readonly string[] = Array.from({ length: PRESET_AVATAR_COUNT }, (_, index) => `preset:${index + 1}`);

const PRESET_RE = /^preset:(\d{1,2})$/;

/** Image URL for a stored avatar value; unknown values fall back to the neutral silhouette. */
export function avatarUrl(avatar: string | null | undefined): string {
  if (avatar) {
    const preset = PRESET_RE.exec(avatar);
    if (preset) {
      const n = Number(preset[1]);
      if (n >= 1 && n <= PRESET_AVATAR_COUNT) return `/avatars/${n}.svg`;
    } else if (avatar.startsWith('data:image/')) {
      return avatar;
    }
  }
  return '/avatars/default.svg';
}
