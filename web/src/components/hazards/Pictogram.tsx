import { Group } from '@mantine/core';
import type { ReactNode } from 'react';

// The nine GHS pictograms (UN GHS Rev. 10, Annex 1 and 1.4.10.5.1: a black symbol on a white background in a red
// diamond frame). No maintained npm package ships them under a free licence (docs/hazards.md), so they are drawn
// here as small SVGs after the UNECE artwork, simplified so that they stay legible at list size.

export type PictogramCode = 'GHS01' | 'GHS02' | 'GHS03' | 'GHS04' | 'GHS05' | 'GHS06' | 'GHS07' | 'GHS08' | 'GHS09';

export const PICTOGRAM_NAMES: Record<PictogramCode, string> = {
  GHS01: 'Exploding bomb',
  GHS02: 'Flame',
  GHS03: 'Flame over circle',
  GHS04: 'Gas cylinder',
  GHS05: 'Corrosion',
  GHS06: 'Skull and crossbones',
  GHS07: 'Exclamation mark',
  GHS08: 'Health hazard',
  GHS09: 'Environment',
};

const flame = (dy = 0, s = 1) =>
  `M${50} ${20 + dy}c${9 * s} ${12 * s} ${17 * s} ${19 * s} ${15 * s} ${33 * s}c${-1 * s} ${9 * s} ${-7 * s} ${15 * s} ${-15 * s} ${15 * s}c${-9 * s} 0 ${-15 * s} ${-6 * s} ${-15 * s} ${-15 * s}c0 ${-9 * s} ${6 * s} ${-13 * s} ${8 * s} ${-21 * s}c${2 * s} ${8 * s} ${4 * s} ${10 * s} ${6 * s} ${12 * s}c${2 * s} ${-8 * s} ${1 * s} ${-16 * s} ${1 * s} ${-24 * s}z`;

const SYMBOLS: Record<PictogramCode, ReactNode> = {
  GHS01: (
    <>
      <circle cx="44" cy="60" r="12" />
      <path d="M52 50l6-8M56 56l10-4M50 46l0-10M62 62l9 3M40 46l-5-8" stroke="#000" strokeWidth="3.5" strokeLinecap="round" />
      <path d="M60 30l4 6-6 1zM70 44l6 3-5 4zM30 36l5 2-4 4zM72 60l5 4-6 2z" />
    </>
  ),
  GHS02: (
    <>
      <path d={flame()} />
      <rect x="30" y="71" width="40" height="5" />
    </>
  ),
  GHS03: (
    <>
      <path d={flame(-2, 0.75)} transform="translate(12.5 6)" />
      <circle cx="50" cy="62" r="9" fill="none" stroke="#000" strokeWidth="5" />
      <rect x="30" y="73" width="40" height="4" />
    </>
  ),
  GHS04: (
    <>
      <rect x="26" y="48" width="42" height="16" rx="8" />
      <rect x="66" y="52" width="6" height="8" />
      <rect x="72" y="50" width="4" height="12" />
    </>
  ),
  GHS05: (
    <>
      <rect x="30" y="22" width="8" height="20" transform="rotate(-25 34 32)" />
      <rect x="60" y="22" width="8" height="20" transform="rotate(25 64 32)" />
      <path d="M40 46l-2 6h4zM60 46l-2 6h4zM40 56l-2 4h4zM60 56l-2 4h4z" />
      <path d="M24 66h22v8H24zM54 64c6-2 14-2 20 2v8H54z" />
      <path d="M36 66l4 4 4-4z" fill="#fff" />
    </>
  ),
  GHS06: (
    <>
      <path d="M50 26c-10 0-16 7-16 15 0 6 3 9 6 11v5h20v-5c3-2 6-5 6-11 0-8-6-15-16-15z" />
      <circle cx="44" cy="41" r="4" fill="#fff" />
      <circle cx="56" cy="41" r="4" fill="#fff" />
      <path d="M32 62l36 12M68 62L32 74" stroke="#000" strokeWidth="5" strokeLinecap="round" />
    </>
  ),
  GHS07: (
    <>
      <rect x="45" y="26" width="10" height="32" rx="4" />
      <circle cx="50" cy="68" r="5.5" />
    </>
  ),
  GHS08: (
    <>
      <circle cx="50" cy="27" r="7" />
      <path d="M36 38h28l4 40H32z" />
      <path d="M50 44l3 7 7 1-5 5 1 7-6-3-6 3 1-7-5-5 7-1z" fill="#fff" />
    </>
  ),
  GHS09: (
    <>
      <path d="M34 70V36M34 46l-8-8M34 52l8-9M34 42l6-6" stroke="#000" strokeWidth="3.5" strokeLinecap="round" />
      <rect x="24" y="70" width="52" height="3" />
      <path d="M50 64c6-5 14-5 20 0-6 5-14 5-20 0zM70 64l6-4v8z" />
      <circle cx="55" cy="63" r="1.5" fill="#fff" />
    </>
  ),
};

/** One GHS pictogram: a red diamond with its black symbol, named for screen readers. */
export function Pictogram({ code, size = 40 }: { code: PictogramCode; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 100 100" role="img" aria-label={PICTOGRAM_NAMES[code]} data-pictogram={code}>
      <title>{PICTOGRAM_NAMES[code]}</title>
      <polygon points="50,4 96,50 50,96 4,50" fill="#fff" stroke="#e4002b" strokeWidth="7" strokeLinejoin="round" />
      <g fill="#000">{SYMBOLS[code]}</g>
    </svg>
  );
}

/** Several pictograms in a row (nothing when there are none). */
export function Pictograms({ codes, size }: { codes: readonly string[]; size?: number }) {
  if (codes.length === 0) return null;
  return (
    <Group gap={2} wrap="nowrap" data-testid="pictograms">
      {codes.map((c) => (
        <Pictogram key={c} code={c as PictogramCode} size={size} />
      ))}
    </Group>
  );
}
