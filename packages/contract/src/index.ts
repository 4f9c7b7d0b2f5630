export * from './common.ts';
export * from './auth.ts';
export * from './vr-users.ts';
export * from './headset.ts';
