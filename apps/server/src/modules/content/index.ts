/** The public face of modules/content: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { ART_STYLES, RARITIES, imageId, imageUrl, parseImageId, rarityOf, renderArtwork } from './artwork.ts';
export { deleteBanner, deleteRecommendList, saveBanner, saveRecommendList } from './edit-banners.ts';
export { deleteNews, newsNotFound, newsState, saveNews, setNewsPublished } from './edit-news.ts';
export { contentRoutes } from './routes.ts';
export { renderPng } from './serve-image.ts';
export type { RasterFonts } from './serve-image.ts';
