import nock from 'nock';

// Every test file loads its own nock, which wraps the shared https.request once more; an earlier
// file's wrapper would refuse this file's intercepted hosts. Each file removes its own wrapper.
afterAll(() => nock.restore());
