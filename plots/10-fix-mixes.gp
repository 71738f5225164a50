# The fix for 32-bit kernels (MATRIX=fix): the mechanism. A panel per
# machine, speed, HZ and counter (rows) and kernel base (columns): per boot,
# the bits the fast pool's mixes credited to the input pool against guest
# seconds from kernel start (log; kernel start drawn at the left edge), as
# steps through the moments raw.csv records (the first mix, 64, 128 and 192
# bits reached, the total at CRNG ready): between two moments the credit is
# at least the step's height. Solid: without patch 0008, dashed: with it.
# Filled circles: CRNG ready (256 bits in the input pool, all sources);
# black triangles: not ready at the run's bound. Everything comes from
# prepare.py's fix.gp and data files (fix_<p>.dat, fixmarks_<p>.dat).
load 'plots/style.gp'
load datadir.'/fix.gp'
if (fmt eq 'png') set terminal pngcairo size 1200,(120 + 300*fixrows) font 'DejaVu Sans,10' noenhanced
if (fmt eq 'svg') set terminal svg size 1200,(120 + 300*fixrows) font 'DejaVu Sans,10' noenhanced
set output out
set logscale x
set xrange [fix_floor:2000]
set yrange [0:fix_ready_bits*1.15]
set xtics ('kernel start' fix_floor, '10 ms' 0.01, '0.1 s' 0.1, '1 s' 1, '10 s' 10, '100 s' 100, '1000 s' 1000) font ',8'
set ytics 64 font ',8'
set grid xtics ytics lc rgb '#dddddd'
set key inside left top font ',8' spacing 0.9 samplen 3
set multiplot layout fixrows,fixcols title "Bits credited by fast pool mixes against guest time, without (solid) and with (dashed) patch 0008\n".fix_caption
do for [p=0:nfixpanels-1] {
	dat = datadir.sprintf('/fix_%d.dat', p)
	marks = datadir.sprintf('/fixmarks_%d.dat', p)
	set title value(sprintf('fixtitle_%d', p)) font ',9'
	set xlabel 'guest s from kernel start (log)' font ',8'
	set ylabel 'bits credited (at least)' font ',8'
	eval 'plot '.value(sprintf('fix_%d', p))
}
unset multiplot
