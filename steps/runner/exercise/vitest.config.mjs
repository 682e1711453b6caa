// The configuration a check runs step N's tests with, given by --config so that vitest does not find the repository's
// own (which names every step as a project). Its cache goes into the check's temporary copy, never into step N's
// node_modules.
export default { cacheDir: ".vitest-cache", test: { includeTaskLocation: true } };
