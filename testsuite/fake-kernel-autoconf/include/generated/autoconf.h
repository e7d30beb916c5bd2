/* A generated kernel configuration header for the preprocessor tests. */
#define CONFIG_SMP 1
#define CONFIG_EXT4_FS_MODULE 1
#define CONFIG_HZ 1000
#define CONFIG_LOCALVERSION "-auto"
