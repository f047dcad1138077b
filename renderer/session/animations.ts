/**
 * The animations the SDK lists. One place, so picking up the avatar
 * engineers' built-in list (idle, wave, walk) is a one-line change.
 */
export const SESSION_ANIMATIONS = ['idle', 'wave', 'walk'] as const;
