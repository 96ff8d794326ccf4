import { useId } from 'react';

export type LogoSize = 'xs' | 'sm' | 'md' | 'lg' | 'xl';
export type LogoVariant = 'full' | 'icon' | 'text' | 'minimal' | 'horizontal';
export type LogoTheme = 'light' | 'dark' | 'color';

const SIZES: Record<LogoSize, number> = { xs: 20, sm: 28, md: 36, lg: 48, xl: 64 };

/** The brand mark: a rounded square with the pen stroke. One component, header and brand page alike. */
export function LogoMark({ size = 'md', theme = 'color' }: { size?: LogoSize; theme?: LogoTheme }) {
  const px = SIZES[size];
  // One gradient id per mark: a page shows several (header, footer, brand page), and ids are unique.
  const gradientId = `logo-gradient-${useId().replace(/[^\w-]/g, '')}`;
  const fill = theme === 'color' ? `url(#${gradientId})` : theme === 'dark' ? '#111827' : '#ffffff';
  const stroke = theme === 'light' ? '#111827' : '#ffffff';
  return (
    <svg
      width={px}
      height={px}
      viewBox="0 0 32 32"
      aria-hidden="true"
      focusable="false"
      className="logo-mark"
    >
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#2563eb" />
          <stop offset="1" stopColor="#9333ea" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill={fill} stroke={theme === 'light' ? '#e5e7eb' : 'none'} />
      <path d="M10 24V8h7a5 5 0 0 1 0 10h-4v6z" fill={stroke} />
    </svg>
  );
}

export function Logo({
  size = 'md',
  variant = 'horizontal',
  theme = 'color',
  title = 'Penstand',
}: {
  size?: LogoSize;
  variant?: LogoVariant;
  theme?: LogoTheme;
  title?: string;
}) {
  const text = <span className={`logo-text logo-text-${size}`}>{title}</span>;
  switch (variant) {
    case 'icon':
      return (
        <span className="logo" role="img" aria-label={title}>
          <LogoMark size={size} theme={theme} />
        </span>
      );
    case 'text':
      return <span className="logo">{text}</span>;
    case 'minimal':
      return (
        <span className="logo logo-minimal">
          <LogoMark size={size} theme={theme} />
          <span className="visually-hidden">{title}</span>
        </span>
      );
    case 'full':
      return (
        <span className="logo logo-full">
          <LogoMark size={size} theme={theme} />
          {text}
          <span className="logo-tagline">Stories from professional life and beyond</span>
        </span>
      );
    default:
      return (
        <span className="logo logo-horizontal">
          <LogoMark size={size} theme={theme} />
          {text}
        </span>
      );
  }
}
