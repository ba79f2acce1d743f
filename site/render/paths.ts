// Where the project lives, for the templates and the assets (shared/project-dir.ts).
import path from 'node:path';
import { PROJECT_DIR } from '../../shared/project-dir.ts';

export { PROJECT_DIR };

/** The site's Nunjucks templates (page templates, and `_includes/` beside them). */
export const TEMPLATES_DIR = path.join(PROJECT_DIR, 'site/templates');
