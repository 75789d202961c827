import { useEffect, useState } from 'react';
import { useNavigation } from 'react-router';
import { LIMITS } from '@cfx/contract/limits.ts';

/**
 * Route progress bar: appears only when a navigation takes longer than 200 ms,
 * creeps to ~90 % over 5000 ms, then completes and fades when the navigation ends.
 */
export function RouteProgress() {
  const busy = useNavigation().state !== 'idle';
  const [phase, setPhase] = useState<'idle' | 'running' | 'done'>('idle');

  useEffect(() => {
    if (busy) {
      const timer = setTimeout(() => setPhase('running'), LIMITS.progressThrottleMs);
      return () => clearTimeout(timer);
    }
    setPhase((p) => (p === 'running' ? 'done' : 'idle'));
  }, [busy]);

  useEffect(() => {
    if (phase !== 'done') return;
    const timer = setTimeout(() => setPhase('idle'), 400);
    return () => clearTimeout(timer);
  }, [phase]);

  if (phase === 'idle') return null;
  return (
    <div className="pointer-events-none fixed inset-x-0 top-0 z-[1100] h-0.5" role="progressbar" aria-busy={phase === 'running'} data-testid="route-progress">
      <div
        className={`h-full origin-left bg-accent ${phase === 'running' ? 'animate-progress-creep' : 'scale-x-100 opacity-0 transition-[transform,opacity] duration-300'}`}
        style={{ animationDuration: `${LIMITS.progressDurationMs}ms` }}
      />
    </div>
  );
}
