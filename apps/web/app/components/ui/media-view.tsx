import { useTranslation } from '../../i18n/index.ts';
import { ModelView } from './model-view.tsx';
import { Thumb } from './thumb.tsx';

/** What a release's artwork is (projects.media_kind); absent = the cover image only. */
export type MediaKind = 'image' | 'video' | 'model';

/**
 * The element MediaView renders: the poster image (`img`) when there is no media or it is an image,
 * a native `video`, or the lazily loaded 3D `model` viewer. Exported for the unit test.
 */
export function mediaElementOf(kind: MediaKind | null | undefined, src: string | null | undefined): 'img' | 'video' | 'model' {
  if (!src) return 'img';
  if (kind === 'video') return 'video';
  if (kind === 'model') return 'model';
  return 'img';
}

/**
 * A collectible's artwork: an image as Thumb renders it (renditions, eager LCP), a video with its
 * poster frame and the browser's own controls (nothing is downloaded before play: preload none),
 * or a 3D model (GLB) shown as its poster until it is scrolled into view, then in a maintained
 * viewer (`<model-viewer>`) loaded by a dynamic import — never part of any page's initial JS.
 * `poster` is the release's cover image; `src` the media URL (`/media/uploads/public/media/…`).
 */
export function MediaView({
  kind,
  src,
  poster,
  alt,
  width,
  height,
  eager = false,
  sizes,
  className = '',
}: {
  kind?: MediaKind | null;
  src?: string | null;
  poster: string;
  alt: string;
  width: number;
  height: number;
  eager?: boolean;
  sizes?: string;
  className?: string;
}) {
  const { t } = useTranslation();
  const el = mediaElementOf(kind, src);
  if (el === 'video') {
    return (
      <video
        src={src!}
        poster={poster}
        controls
        preload="none"
        playsInline
        width={width}
        height={height}
        aria-label={alt}
        className={className}
        data-testid="media-video"
      >
        {t('media.videoUnsupported')}
      </video>
    );
  }
  if (el === 'model') return <ModelView src={src!} poster={poster} alt={alt} width={width} height={height} className={className} />;
  return <Thumb src={kind === 'image' && src ? src : poster} alt={alt} width={width} height={height} eager={eager} sizes={sizes} className={className} />;
}
