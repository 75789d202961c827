import { useEffect, useRef, useState } from 'react';
import { useAuthOverlay } from '../../../stores/auth-overlay.ts';
import { useUserStore } from '../../../stores/user.ts';
import { followCreator } from '../api/follow-creator.ts';
import { viewerState } from '../api/viewer-state.ts';

export interface FollowView {
  following: boolean;
  followerCount: number;
  /** A follow / unfollow call is on its way. */
  pending: boolean;
  /** The signed-in viewer's state has been loaded (the server renders the visitor's view). */
  known: boolean;
  toggle(): void;
}

/**
 * The follow state of one creator for this viewer. The page arrives with the visitor's view (not
 * following, the count at render time); once a token is known, the viewer's state is fetched. A
 * click changes the button and the count at once (optimistic) and puts both back if the server
 * refuses (its message is shown by the API client); the server's answer then sets the exact count.
 * Logged out, a click opens the login overlay.
 */
export function useFollow(creatorId: number, initial: { following: boolean; followerCount: number }, onCounts?: (c: { momentCount: number }) => void): FollowView {
  const token = useUserStore((s) => s.token);
  const [state, setState] = useState({ following: initial.following, followerCount: initial.followerCount, known: false });
  const [pending, setPending] = useState(false);
  const seq = useRef(0);

  useEffect(() => {
    setState({ following: initial.following, followerCount: initial.followerCount, known: false });
    if (!token) return;
    const mine = ++seq.current;
    void viewerState(creatorId).then((r) => {
      if (mine !== seq.current || !r.ok || !r.data) return;
      setState({ following: r.data.following, followerCount: r.data.followerCount, known: true });
      onCounts?.({ momentCount: r.data.momentCount });
    });
  }, [creatorId, token]); // eslint-disable-line react-hooks/exhaustive-deps

  const toggle = () => {
    if (!token) {
      useAuthOverlay.getState().openOverlay('login');
      return;
    }
    if (pending) return;
    const before = state;
    const follow = !before.following;
    ++seq.current; // a viewer-state answer still on its way must not undo this
    setState({ following: follow, followerCount: Math.max(0, before.followerCount + (follow ? 1 : -1)), known: true });
    setPending(true);
    void followCreator(creatorId, follow).then((r) => {
      setPending(false);
      if (r.ok && r.data) setState({ following: r.data.following, followerCount: r.data.followerCount, known: true });
      else setState(before);
    });
  };

  return { ...state, pending, toggle };
}
