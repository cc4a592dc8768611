// First: an earlier file's nock must not stay wrapped around this file's (see pristineHttp.ts).
import './pristineHttp';
import nock from 'nock';

// The network is closed in tests: only loopback (supertest's in-process server) is reachable.
// Every outside call must be an explicit nock scope or an in-process fake.
nock.disableNetConnect();
nock.enableNetConnect(/^(127\.0\.0\.1|localhost)(:\d+)?$/);
