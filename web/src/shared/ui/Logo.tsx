import { theme } from 'antd';
import { useThemeKind } from '../theme';

/**
 * The product mark, one per theme (like the favicon): a sun over a battery cell by default,
 * a sun over a peak for the branded theme. `inverse` draws it white for coloured backgrounds.
 */
export function LogoMark({ size = 32, inverse = false }: { size?: number; inverse?: boolean }) {
  const { token } = theme.useToken();
  const kind = useThemeKind();
  const fill = inverse ? '#fff' : token.colorPrimary;
  const ink = inverse ? token.colorPrimary : '#fff';
  if (kind === 'branded') {
    return (
      <svg width={size} height={size} viewBox="0 0 48 48" role="img" aria-hidden="true">
        <circle cx="24" cy="24" r="22" fill={fill} />
        <circle cx="31" cy="15" r="4" fill={ink} />
        <path d="M10 34l9-16 7 10 4-5 8 11z" fill={ink} />
      </svg>
    );
  }
  return (
    <svg width={size} height={size} viewBox="0 0 48 48" role="img" aria-hidden="true">
      <rect x="2" y="2" width="44" height="44" rx="12" fill={fill} />
      <circle cx="24" cy="19" r="7" fill={ink} />
      <g stroke={ink} strokeWidth="2.5" strokeLinecap="round">
        <path d="M24 6v3M24 29v3M11 19h3M34 19h3M14.8 9.8l2.1 2.1M31.1 26.1l2.1 2.1M14.8 28.2l2.1-2.1M31.1 11.9l2.1-2.1" />
      </g>
      <rect x="14" y="35" width="20" height="6" rx="2" fill="none" stroke={ink} strokeWidth="2.5" />
      <rect x="17" y="37" width="9" height="2" fill={ink} />
    </svg>
  );
}
