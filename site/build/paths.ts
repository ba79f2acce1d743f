// Where the project lives, for the templates and the assets (shared/project-dir.ts).
export { PROJECT_DIR } from '../../shared/project-dir.ts';
