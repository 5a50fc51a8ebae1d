// Types of scripts/first-load.mjs, for its test (scripts/first-load.test.ts).
export interface FileSize {
  file: string;
  bytes: number;
  gzip: number;
}
export interface FirstLoad {
  scripts: FileSize[];
  styles: FileSize[];
  jsGzip: number;
  cssGzip: number;
}
export interface ModuleSize {
  id: string;
  bytes: number;
  gzip: number;
}
export const TARGET_KIB: number;
export const LIMIT_KIB: number;
export interface ChunkLinks {
  imports: string[];
  dynamicImports: string[];
  css: string[];
}
export interface InitialFiles {
  js: string[];
  css: string[];
  entries: string[];
}
export function initialFiles(html: string, base: string): InitialFiles;
export function startFiles(
  files: InitialFiles,
  graph: Record<string, ChunkLinks>,
): { js: string[]; css: string[] };
export function measure(dist: string, base?: string, graph?: Record<string, ChunkLinks>): FirstLoad;
export function webFonts(dist: string): string[];
export function eagerCatalogues(
  graph: Record<string, ChunkLinks>,
  modules: Record<string, ModuleSize[]>,
): { file: string; languages: string[] }[];
export function viteLoaders(modules: Record<string, ModuleSize[]>): string[];
export function verdict(jsGzip: number, target?: number, limit?: number): 'ok' | 'warn' | 'fail';
export function report(
  result: FirstLoad,
  modules: Record<string, ModuleSize[]> | undefined,
  top?: number,
): string[];
