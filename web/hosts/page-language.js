// The page in the reader's language (?locale=fr), before the modules after it fill it in.
import { translatePage } from "../dom/translate-page.js";

translatePage();
