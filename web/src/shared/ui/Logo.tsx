import { theme } from 'antd';

/** The product mark: a sun over a battery cell, in the primary colour. */
export function LogoMark({ size = 32 }: { size?: number }) {
  const { token } = theme.useToken();
  return (
    <svg width={size} height={size} viewBox="0 0 48 48" role="img" aria-hidden="true">
      <rect x="2" y="2" width="44" height="44" rx="12" fill={token.colorPrimary} />
      <circle cx="24" cy="19" r="7" fill="#fff" />
      <g stroke="#fff" strokeWidth="2.5" strokeLinecap="round">
        <path d="M24 6v3M24 29v3M11 19h3M34 19h3M14.8 9.8l2.1 2.1M31.1 26.1l2.1 2.1M14.8 28.2l2.1-2.1M31.1 11.9l2.1-2.1" />
      </g>
      <rect
        x="14"
        y="35"
        width="20"
        height="6"
        rx="2"
        fill="none"
        stroke="#fff"
        strokeWidth="2.5"
      />
      <rect x="17" y="37" width="9" height="2" fill="#fff" />
    </svg>
  );
}
