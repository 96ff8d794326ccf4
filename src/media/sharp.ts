import type sharp from 'sharp';

export type SharpFactory = typeof sharp;

/**
 * sharp, loaded at the first image a process handles: libvips takes some 19 MB of a process's
 * memory once loaded, and a web process that only serves pages never needs it.
 */
export function loadSharp(): Promise<SharpFactory> {
  return import('sharp').then((module) => module.default);
}
