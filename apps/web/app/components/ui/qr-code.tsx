import { useMemo } from 'react';
import { encode } from 'uqr';

/** The dark modules of a QR code as one SVG path (one unit per module, quiet zone included). */
export function qrPath(text: string): { size: number; d: string } {
  const qr = encode(text, { ecc: 'M', border: 2 });
  let d = '';
  qr.data.forEach((row, y) => {
    let x = 0;
    while (x < row.length) {
      if (!row[x]) {
        x++;
        continue;
      }
      let run = 1;
      while (row[x + run]) run++;
      d += `M${x} ${y}h${run}v1h-${run}z`;
      x += run;
    }
  });
  return { size: qr.size, d };
}

/** A QR code generated locally as inline SVG (rendered on the server too, so it needs no JS). */
export function QrCode({ value, size = 160, label, className = '' }: { value: string; size?: number; label: string; className?: string }) {
  const { size: n, d } = useMemo(() => qrPath(value), [value]);
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${n} ${n}`}
      width={size}
      height={size}
      shapeRendering="crispEdges"
      className={className}
      data-testid="qr-code"
      data-value={value}
    >
      <rect width={n} height={n} fill="#fff" />
      <path d={d} fill="#0b0c1a" />
    </svg>
  );
}
