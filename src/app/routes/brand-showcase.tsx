import { Logo, type LogoSize, type LogoTheme, type LogoVariant } from '../components/Logo.tsx';
import '../styles/blog.css';
import type { Route } from './+types/brand-showcase';

const SIZES: LogoSize[] = ['xs', 'sm', 'md', 'lg', 'xl'];
const VARIANTS: LogoVariant[] = ['full', 'icon', 'text', 'minimal', 'horizontal'];
const THEMES: LogoTheme[] = ['light', 'dark', 'color'];
const PALETTE = [
  ['Primary blue', '#2563eb'],
  ['Primary purple', '#9333ea'],
  ['Dark text', '#111827'],
  ['Light text', '#6b7280'],
] as const;

export const meta: Route.MetaFunction = () => [
  { title: 'Brand showcase — Penstand' },
  { name: 'description', content: 'Logo sizes, variants, themes, palette and usage guidelines.' },
];

export default function BrandShowcase() {
  return (
    <section className="container brand-page">
      <h1>Brand showcase</h1>
      <h2>Sizes</h2>
      <ul className="brand-row">
        {SIZES.map((size) => (
          <li key={size} className="card">
            <Logo size={size} />
            <span className="muted">{size}</span>
          </li>
        ))}
      </ul>
      <h2>Variants</h2>
      <ul className="brand-row">
        {VARIANTS.map((variant) => (
          <li key={variant} className="card">
            <Logo variant={variant} />
            <span className="muted">{variant}</span>
          </li>
        ))}
      </ul>
      <h2>Themes</h2>
      <ul className="brand-row">
        {THEMES.map((theme) => (
          <li key={theme} className={`card brand-theme-${theme}`}>
            <Logo theme={theme} variant="icon" size="lg" />
            <span>{theme}</span>
          </li>
        ))}
      </ul>
      <h2>Palette</h2>
      <ul className="brand-row">
        {PALETTE.map(([name, hex]) => (
          <li key={hex} className="card">
            <span className="swatch" style={{ background: hex }} />
            <span>
              {name} <code>{hex}</code>
            </span>
          </li>
        ))}
      </ul>
      <h2>Usage guidelines</h2>
      <ul>
        <li>Keep clear space around the logo of at least the height of the mark.</li>
        <li>Use the colour logo on light backgrounds, the light logo on dark or busy backgrounds.</li>
        <li>Never stretch, rotate or recolour the mark outside the palette.</li>
        <li>Use the icon variant below 24 px; use the full variant where the tagline has room.</li>
      </ul>
    </section>
  );
}
