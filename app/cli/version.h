/* version: the one version string both programs print. */
#ifndef APP_VERSION_H
#define APP_VERSION_H

#define DISTMM_VERSION "0.1.0"

#endif
