// course.html: the page in the reader's language (page-language.js, first), then its cells and exercises as
// embed.js makes them, in one file (hosts/course-page.bundle.js). One graph of modules, so that the cells take
// the page's language: article-language.js's choice comes after messages.js has read the page's.
import "./page-language.js";
import { startArticle } from "./article-cells.js";

startArticle(new URL("..", import.meta.url), true); // the site's root: no query, this origin
