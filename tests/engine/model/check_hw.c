/* check_hw: the hardware presets and the preset file (engine/model/hw.c,
 * hw_file.c): each preset's published figures as docs/clock.md states
 * them, the reader's refusals one by one, and the writer's text read back
 * value for value. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <distmm/hw.h>
#include "testutil.h"

struct want {
	const char *name;
	double alpha_us, bw_gbps, tflops;
	enum hw_precision precision;
};

/* The figures, written out again from their sources (docs/clock.md). */
static const struct want presets[] = {
	{ "a100-nvlink", 2.4, 300, 19.5, HW_FP64 },
	{ "h100-nvlink", 3.4, 450, 67, HW_FP64 },
	{ "b200-nvlink", 3.4, 900, 40, HW_FP64 },
	{ "ib-ndr", 14, 50, 67, HW_FP64 },
	{ "a100-nvlink-bf16", 2.4, 300, 312, HW_BF16 },
	{ "h100-nvlink-bf16", 3.4, 450, 989, HW_BF16 },
	{ "b200-nvlink-bf16", 3.4, 900, 2250, HW_BF16 },
	{ "ib-ndr-bf16", 14, 50, 989, HW_BF16 },
};

START_TEST(presets_hold_their_published_figures)
{
	struct dm_hw hw, by_name;
	struct dm_err err;
	int count = (int)(sizeof presets / sizeof presets[0]);
	ck_assert_int_eq(hw_preset_count(), count);
	for (int i = 0; i < count; i++) {
		ck_assert_int_eq(hw_preset_at(i, &hw), 0);
		ck_assert_str_eq(hw.name, presets[i].name);
		ck_assert(hw.alpha_us == presets[i].alpha_us && hw.bw_gbps == presets[i].bw_gbps &&
			  hw.tflops == presets[i].tflops);
		ck_assert_int_eq(hw.precision, presets[i].precision);
		ck_assert_msg(strlen(hw.source) > 20, "%s names no source", hw.name);
		ck_assert_int_eq(hw_check(&hw, &err), 0);
		ck_assert_int_eq(hw_preset_find(presets[i].name, &by_name, &err), 0);
		ck_assert(memcmp(&hw, &by_name, sizeof hw) == 0);
	}
	ck_assert_int_eq(hw_preset_at(count, &hw), DM_EINVAL);
	ck_assert_int_eq(hw_preset_find("h100", &hw, &err), DM_EINVAL);
	ck_assert_str_eq(err.msg, "no hardware preset 'h100' (a100-nvlink, h100-nvlink, "
				  "b200-nvlink, ib-ndr, a100-nvlink-bf16, h100-nvlink-bf16, "
				  "b200-nvlink-bf16, ib-ndr-bf16)");
	hw_default(&hw);
	ck_assert_str_eq(hw.name, "h100-nvlink");
	ck_assert_str_eq(hw_precision_name(HW_BF16), "bf16");
}
END_TEST

static int parse(const char *text, struct dm_hw *hw, struct dm_err *err)
{
	return hw_parse(text, strlen(text), "t.hw", "t", hw, err);
}

START_TEST(a_preset_file_is_read)
{
	struct dm_hw hw;
	struct dm_err err;
	ck_assert_int_eq(parse("# measured\r\n\n  name = lab-2 \r\nalpha_us=1.25\n\tbw_gbps =  12.5\n"
			       "tflops = 0.5\nprecision = bf16\nsource = ping-pong, 2 ranks\n",
			       &hw, &err), 0);
	ck_assert_str_eq(hw.name, "lab-2");
	ck_assert(hw.alpha_us == 1.25 && hw.bw_gbps == 12.5 && hw.tflops == 0.5);
	ck_assert_int_eq(hw.precision, HW_BF16);
	ck_assert_str_eq(hw.source, "ping-pong, 2 ranks");
	/* the least a file gives: alpha and beta; the name is the fallback */
	ck_assert_int_eq(parse("alpha_us = 0\nbw_gbps = 450", &hw, &err), 0);
	ck_assert_str_eq(hw.name, "t");
	ck_assert(hw.alpha_us == 0 && hw.bw_gbps == 450 && hw.tflops == 0);
	ck_assert_int_eq(hw.precision, HW_FP64);
}
END_TEST

START_TEST(a_bad_preset_file_is_refused_with_its_line)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "alpha_us = 1\n", "t.hw: bw_gbps missing (a preset gives alpha_us and bw_gbps at least)" },
		{ "bw_gbps = 1\n", "t.hw: alpha_us missing (a preset gives alpha_us and bw_gbps at least)" },
		{ "alpha_us = 1\nspeed = 2\n", "t.hw:2: unknown key 'speed' (name, alpha_us, bw_gbps, "
					      "tflops, precision, source)" },
		{ "alpha_us = 1\nalpha_us = 2\n", "t.hw:2: alpha_us given twice" },
		{ "alpha_us 1\n", "t.hw:1: want key = value, not 'alpha_us 1'" },
		{ "alpha_us = 4x\n", "t.hw:1: alpha_us must be a decimal number, not '4x'" },
		{ "alpha_us = inf\n", "t.hw:1: alpha_us must be a decimal number, not 'inf'" },
		{ "alpha_us = nan\n", "t.hw:1: alpha_us must be a decimal number, not 'nan'" },
		{ "alpha_us = 0x10\n", "t.hw:1: alpha_us must be a decimal number, not '0x10'" },
		{ "alpha_us =\n", "t.hw:1: alpha_us must be a decimal number, not ''" },
		{ "bw_gbps = 1e999\n", "t.hw:1: bw_gbps must be a decimal number, not '1e999'" },
		{ "alpha_us = -1\nbw_gbps = 1\n", "t.hw: alpha must be 0 to 1e+06 us, not -1" },
		{ "alpha_us = 1\nbw_gbps = 0\n",
		  "t.hw: the bandwidth must be above 0 up to 1e+06 GB/s, not 0" },
		{ "alpha_us = 1\nbw_gbps = 2e6\n",
		  "t.hw: the bandwidth must be above 0 up to 1e+06 GB/s, not 2e+06" },
		{ "alpha_us = 1\nbw_gbps = 1\ntflops = 0\n", "t.hw: tflops must be above 0, not 0" },
		{ "precision = fp32\n", "t.hw:1: precision is fp64 or bf16, not 'fp32'" },
		{ "alpha_us = 1\nbw_gbps = 1\nname = my lab\n",
		  "t.hw: a hardware's name is letters, digits and ._+- (up to 63)" },
	};
	struct dm_hw hw;
	struct dm_err err;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_int_eq(parse(bad[i].text, &hw, &err), DM_EFORMAT);
		ck_assert_str_eq(err.msg, bad[i].msg);
	}
	char text[600];
	memset(text, 'x', sizeof text);
	memcpy(text, "source = ", 9);
	text[sizeof text - 1] = '\0';
	ck_assert_int_eq(parse(text, &hw, &err), DM_EFORMAT);
	ck_assert_str_eq(err.msg, "t.hw:1: line longer than 511 characters");
	text[300] = '\0';
	ck_assert_int_eq(parse(text, &hw, &err), DM_EFORMAT);
	ck_assert_str_eq(err.msg, "t.hw:1: source is longer than 199 characters");
	ck_assert_int_eq(hw_parse("alpha_us = 1\0\n", 14, "t.hw", "t", &hw, &err), DM_EFORMAT);
	ck_assert_str_eq(err.msg, "t.hw:1: a NUL byte: not a text file");
}
END_TEST

/* What the writer writes, the reader reads back to the bit: every preset,
 * and values with no short decimal. */
START_TEST(written_and_read_back_value_for_value)
{
	struct dm_hw hw, back;
	struct dm_err err;
	char text[1024], dir[] = "/tmp/check_hw.XXXXXX", path[64];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/lab.hw", dir);
	for (int i = 0; i <= hw_preset_count(); i++) {
		if (i < hw_preset_count()) {
			ck_assert_int_eq(hw_preset_at(i, &hw), 0);
		} else { /* a calibration's figures, and no F */
			memset(&hw, 0, sizeof hw);
			strcpy(hw.name, "measured");
			hw.alpha_us = 0.1 + 0.2;
			hw.bw_gbps = 1.0 / 3.0;
		}
		int len = hw_format(&hw, text, sizeof text);
		ck_assert(len > 0 && (size_t)len < sizeof text);
		ck_assert_int_eq(hw_parse(text, (size_t)len, "x", "x", &back, &err), 0);
		ck_assert_msg(memcmp(&hw, &back, sizeof hw) == 0, "%s does not read back:\n%s",
			      hw.name, text);
		ck_assert_int_eq(hw_write_file(path, &hw, &err), 0);
		ck_assert_int_eq(hw_read_file(path, &back, &err), 0);
		ck_assert(memcmp(&hw, &back, sizeof hw) == 0);
	}
	/* a file that names nothing is named after itself */
	FILE *f = fopen(path, "w");
	fputs("alpha_us = 2\nbw_gbps = 3\n", f);
	fclose(f);
	ck_assert_int_eq(hw_read_file(path, &back, &err), 0);
	ck_assert_str_eq(back.name, "lab");
	unlink(path);
	ck_assert_int_eq(hw_read_file(path, &back, &err), DM_EIO);
	hw.bw_gbps = -1;
	ck_assert_int_eq(hw_write_file(path, &hw, &err), DM_EINVAL);
	ck_assert_int_eq(access(path, F_OK), -1);
	rmdir(dir);
}
END_TEST

static Suite *hw_suite(void)
{
	Suite *s = suite_create("hw");
	TCase *tc = tcase_create("presets");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, presets_hold_their_published_figures);
	suite_add_tcase(s, tc);
	tc = tcase_create("the preset file");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, a_preset_file_is_read);
	tcase_add_test(tc, a_bad_preset_file_is_refused_with_its_line);
	tcase_add_test(tc, written_and_read_back_value_for_value);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(hw_suite());
}
