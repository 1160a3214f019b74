import { describeProxy } from './proxy-suite.ts';
import { startNginx } from './proxies.ts';

// docs/deploy/nginx.conf under Debian's nginx 1.22: discovery, a 20 MB conversion, post_allow, wss.
describeProxy('nginx', startNginx);
