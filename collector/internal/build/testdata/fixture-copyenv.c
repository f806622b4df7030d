/* A fixture, not Redis code: what setproctitle's spt_copyenv did in Redis
 * 2.8 to 4.0 (redis/redis#8088 fixed it). It clears the environment and then
 * reads the array it cleared; when something called setenv before main, that
 * array was malloc'ed by glibc and clearenv freed it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

int main(void) {
	char **old = environ;
	clearenv();
	for (int i = 0; old[i]; i++) {
		char *eq = strchr(old[i], '=');
		if (eq == NULL)
			continue;
		*eq = '\0';
		setenv(old[i], eq + 1, 1);
		*eq = '=';
	}
	puts("ok");
	return 0;
}
